/**
 * The handshake-era protocol revisions this server speaks, newest first.
 * `initialize` echoes the client's version when it is listed here and answers
 * the newest otherwise; an unknown version is never an error (spec: lifecycle).
 * @publicApi
 */
export const SUPPORTED_PROTOCOL_VERSIONS = [
  '2025-11-25',
  '2025-06-18',
  '2025-03-26',
  '2024-11-05',
] as const;

/**
 * A handshake-era protocol revision this server speaks.
 * @publicApi
 */
export type ProtocolVersion = (typeof SUPPORTED_PROTOCOL_VERSIONS)[number];

/**
 * The newest handshake-era revision: what `initialize` answers a client that asks for an
 * unknown one.
 * @publicApi
 */
export const LATEST_PROTOCOL_VERSION: ProtocolVersion = SUPPORTED_PROTOCOL_VERSIONS[0];

/** The only revision whose clients may send JSON-RPC batches (it says servers MUST accept them). */
export const BATCHING_PROTOCOL_VERSION: ProtocolVersion = '2025-03-26';

export function isSupportedProtocolVersion(value: unknown): value is ProtocolVersion {
  return (SUPPORTED_PROTOCOL_VERSIONS as readonly unknown[]).includes(value);
}

/** Picks the version to answer `initialize` with. */
export function negotiateProtocolVersion(requested: string): ProtocolVersion {
  return isSupportedProtocolVersion(requested) ? requested : LATEST_PROTOCOL_VERSION;
}
