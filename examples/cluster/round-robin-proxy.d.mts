export interface ProxiedRequest {
  /** Which backend answered it. */
  readonly backend: number;
  readonly method: string;
  /** A POST's JSON-RPC method, or 'response'. */
  readonly rpc?: string;
}
export interface RoundRobinProxy {
  readonly url: string;
  /** Every request answered, in order. */
  readonly served: ProxiedRequest[];
  /** Sends the next request to backend `index`. */
  steer(index: number): void;
  close(): Promise<void>;
}
export function startRoundRobinProxy(backends: string[], port?: number): Promise<RoundRobinProxy>;
