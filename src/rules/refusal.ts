/**
 * The one shape every rules engine uses for a move it refuses: `legal: false` and a stable reason
 * code from the family's own list (`GO_ILLEGAL`, `DOTS_ILLEGAL`, `CHECKERS_ILLEGAL`, `PEG_ILLEGAL`).
 * A legal outcome is `{ legal: true, ... }` with whatever the family's move produced.
 *
 * Codes are snake_case words naming the rule the move breaks. They are part of the archive's API
 * (a verdict's problems carry them, prefixed by family), so a code is never renamed; new ones are
 * added at the end of their list.
 */
export interface Refused<Reason extends string> {
  readonly legal: false;
  readonly reason: Reason;
}
