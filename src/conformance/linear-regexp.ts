// The regular expressions a checked document's `pattern`s become, for ajv: RE2's engine (re2js,
// a JavaScript port of it), whose matching time is linear in the text, so a deployment's own
// `^(a+)+$` cannot hold a run on a long answer. A pattern RE2 does not take (a lookahead, a
// backreference) is not checked, and the run says so rather than fall back to a backtracking
// engine.
import type { RegExpEngine } from "ajv/dist/types/index.js";
import { RE2JS } from "re2js";

/** An ajv regExp engine; `unchecked` hears of each pattern it could not compile, and why. */
export function linearRegExp(unchecked: (pattern: string, why: string) => void): RegExpEngine {
  const engine = (pattern: string) => {
    try {
      const compiled = RE2JS.compile(RE2JS.translateRegExp(pattern));
      // ajv keys its compiled patterns by toString: it must be the pattern's own.
      return { test: (text: string) => compiled.test(text), toString: () => pattern };
    } catch (error) {
      unchecked(pattern, (error as Error).message);
      return { test: () => true, toString: () => `unchecked ${pattern}` };
    }
  };
  // What ajv's standalone code would require; these validators are never made standalone.
  return Object.assign(engine, { code: 'require("re2js").RE2JS' });
}
