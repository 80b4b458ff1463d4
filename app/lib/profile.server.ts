/**
 * Session updates that follow a profile change. The session code owns the portal_sessions row;
 * these are its helpers, re-exported here for the profile screens.
 */
export { replaceSessionTokens, updateSessionUser, type SessionUserPatch } from './session.server.ts'
