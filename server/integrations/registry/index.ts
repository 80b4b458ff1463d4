/**
 * Registry integration: the `RegistryConnection` the application calls, its EPP implementation
 * (client, pool, rate limit) and the local registry server for development, the demo and tests.
 */
export type { RegistryConnection, EppRegistryConnectionOptions } from './connection.ts'
export { EppRegistryConnection } from './connection.ts'
export { EppClient, type EppClientOptions, type LoginOptions } from './client.ts'
export { EppPool, type EppPoolOptions } from './pool.ts'
export { TokenBucket } from './rate-limit.ts'
export { RegistryError, RegistryConnectionError, RegistryThrottled, REGISTRY_THROTTLE_MESSAGE, RESULT_MESSAGES } from './errors.ts'
export { startLocalRegistry, type LocalRegistryOptions, type LocalRegistryServer } from './local-server.ts'
export { answerRdap, rdapStatus, RDAP_MEDIA_TYPE, type RegistrarProfile } from './rdap-server.ts'
export { DEFAULT_POLICY, DEFAULT_TLD_POLICY, type LocalRegistryPolicy, type TldPolicy } from './local-registry.ts'
export { checkXsdDir, defaultXsdDir, EppSchemaValidator } from './xsd-validator.ts'
export type * from './types.ts'
export { registryErrorToAppError } from './app-errors.ts'
export { newAuthCode } from './auth-info.ts'
export { EppBlockProvider, type BlockProvider, type BlockRecord, type BlockCreateInput } from './blocks.ts'
