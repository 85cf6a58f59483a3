/**
 * The Dots connections open at once over every transport together (TCP and the WebSocket bridge),
 * against DOTS_MAX_CONNECTIONS: a transport takes a place before it serves a connection, refuses the
 * connection when none is left, and gives the place back once the connection has closed.
 */
export class ConnectionBudget {
  private taken = 0;

  constructor(readonly max: number) {}

  /** Connections holding a place now. */
  get open(): number {
    return this.taken;
  }

  /** Takes a place for a new connection; false when every place is taken. */
  take(): boolean {
    if (this.taken >= this.max) return false;
    this.taken++;
    return true;
  }

  /** Gives back the place of a connection that has closed. */
  release(): void {
    if (this.taken > 0) this.taken--;
  }
}
