/**
 * The largest zone file (or files together) one import takes, on both sides: the portal refuses
 * more before sending, and the Platform API's bind-import refuses a larger body (its own limit,
 * above the API's general BODY_LIMIT_BYTES). 64 MiB holds about two million records.
 */
export const ZONE_FILE_MAX_BYTES = 64 * 1024 * 1024

/** The limit as a person reads it. */
export const ZONE_FILE_MAX_LABEL = '64 MB'

/** RFC 4027's media type for a zone file: the API streams such a body straight into the parser. */
export const ZONE_FILE_MEDIA_TYPE = 'text/dns'
