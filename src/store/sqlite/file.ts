// Which file a path names right now (device and inode), so that a store can tell when its
// SQLite file has been deleted or replaced while open: in WAL mode SQLite itself goes on
// writing to the unlinked file, and every plant acknowledged after that would be lost.
import { statSync } from "node:fs";
import { StoreFaultError } from "../store.ts";

/** `device:inode` of the file at `path`, or "missing". */
export function fileIdentity(path: string): string {
  try {
    const stat = statSync(path, { bigint: true });
    return `${stat.dev}:${stat.ino}`;
  } catch {
    return "missing";
  }
}

/** Throws StoreFaultError unless `path` still names the file that was opened as `opened`. */
export function assertSameFile(path: string, opened: string): void {
  const now = fileIdentity(path);
  if (now !== opened) {
    throw new StoreFaultError(
      `the SQLite file ${path} was ${now === "missing" ? "deleted" : "replaced"} while open; restart plantstore once it is back`,
    );
  }
}
