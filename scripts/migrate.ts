// `npm run migrate`: apply pending schema migrations to DATABASE_URL's database and exit,
// for deployments that migrate in a release step before starting new instances.
import { ConfigError, loadConfig } from "../src/config/config.ts";
import { databaseLocation, migrateDatabase } from "../src/store/open.ts";

try {
  const { database } = loadConfig(process.env);
  const { from, to } = await migrateDatabase(database);
  const where = `${database.engine} ${databaseLocation(database)}`;
  process.stdout.write(
    from === to
      ? `plantstore: ${where} is at schema version ${to}; nothing to do\n`
      : `plantstore: migrated ${where} from schema version ${from} to ${to}\n`,
  );
} catch (error) {
  const prefix = error instanceof ConfigError ? "invalid configuration: " : "migration failed: ";
  process.stderr.write(`plantstore: ${prefix}${(error as Error).message}\n`);
  process.exitCode = 1;
}
