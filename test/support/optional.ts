/*
 * Suites that need something beside the project's own files (Chromium, a font, the shared real data,
 * a Python client generator): where it is there they run; where it is not they say so in one line on
 * stderr and are skipped, a skipped test's title saying the same; and with the requirement's
 * TABULA_REQUIRE_* variable set to 1 (CI does) they hold one failing test that names what is missing.
 */

/** Something a suite needs: `missing` is null when it is there, else what is missing and where (and how to get it). */
export interface Requirement {
  readonly what: string;
  readonly missing: string | null;
  /** The variable that makes a missing requirement a failure, e.g. TABULA_REQUIRE_BROWSER. */
  readonly requiredBy: string;
}

// Jest's globals, reached through globalThis: the benches compile test/support without Jest's types and run it without Jest.
type Block = () => void;
interface JestGlobals {
  describe: ((title: string, block: Block) => void) & { skip: (title: string, block: Block) => void };
  it: (title: string, test: () => void) => void;
}
const jestGlobals = () => globalThis as unknown as JestGlobals;

/** `describe(title, block)` when the requirement is met; else skipped saying so, or failing when it is required. */
export function describeIfThere(title: string, requirement: Requirement, block: Block): void {
  const { describe, it } = jestGlobals();
  const { missing, requiredBy, what } = requirement;
  if (missing === null) {
    describe(title, block);
  } else if (process.env[requiredBy] === '1') {
    describe(title, () => {
      it(`finds ${what}, as ${requiredBy}=1 demands`, () => {
        throw new Error(`${missing}; ${requiredBy}=1 makes this a failure`);
      });
    });
  } else {
    // Said in the run's output as well (the default reporter does not name skipped tests), in one line.
    process.stderr.write(`"${title}" skipped: ${missing}; ${requiredBy}=1 makes this a failure\n`);
    describe.skip(`${title} (skipped: ${missing})`, () => {
      it(`needs ${what}`, () => undefined);
    });
  }
}
