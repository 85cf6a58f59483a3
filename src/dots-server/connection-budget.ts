import { addressKey } from './guard.js';

/** Why a connection got no place: every place is taken, or every place its address may hold. */
export type BudgetRefusal = 'full' | 'address';

/**
 * The Dots connections open at once over every transport together (TCP and the WebSocket bridge),
 * against DOTS_MAX_CONNECTIONS, and per address against DOTS_MAX_CONNECTIONS_PER_ADDRESS (an IPv6
 * address counts by its /64, guard.ts): a transport takes a place before it serves a connection,
 * refuses the connection when none is left, and gives the place back once the connection has closed.
 */
export class ConnectionBudget {
  private taken = 0;
  private readonly byAddress = new Map<string, number>();

  constructor(
    readonly max: number,
    readonly maxPerAddress: number = max,
  ) {}

  /** Connections holding a place now. */
  get open(): number {
    return this.taken;
  }

  /** Connections from the address holding a place now. */
  openFrom(address: string): number {
    return this.byAddress.get(addressKey(address)) ?? 0;
  }

  /** Takes a place for a new connection from `address`: null, or why there is none (nothing taken then). */
  take(address = ''): BudgetRefusal | null {
    if (this.taken >= this.max) return 'full';
    const key = addressKey(address);
    const from = this.byAddress.get(key) ?? 0;
    if (from >= this.maxPerAddress) return 'address';
    this.taken++;
    this.byAddress.set(key, from + 1);
    return null;
  }

  /** Gives back the place of a connection from `address` that has closed. */
  release(address = ''): void {
    if (this.taken > 0) this.taken--;
    const key = addressKey(address);
    const from = this.byAddress.get(key) ?? 0;
    if (from <= 1) this.byAddress.delete(key);
    else this.byAddress.set(key, from - 1);
  }
}
