/** Typed shapes of registry operations, independent of EPP's XML. Dates are `Date`s in UTC. */

export type DomainContactType = 'admin' | 'billing' | 'tech'
export type DomainContact = { type: DomainContactType; id: string }

/** RFC 5910 DS record (dsData interface). `digest` is hex. */
export type DsData = { keyTag: number; alg: number; digestType: number; digest: string }

export type CheckResult = { name: string; available: boolean; reason?: string }

export type DomainCreateInput = {
  name: string
  /** Registration period in years; the registry's default when omitted. */
  years?: number
  /** Host object names (RFC 5731 hostObj). */
  nameservers?: string[]
  registrant?: string
  contacts?: DomainContact[]
  authInfo: string
  dsData?: DsData[]
}
export type DomainCreateResult = { name: string; createdAt: Date; expiresAt?: Date }

export type DomainInfo = {
  name: string
  roid: string
  statuses: string[]
  registrant?: string
  contacts: DomainContact[]
  nameservers: string[]
  /** Subordinate hosts (hosts named under this domain). */
  hosts: string[]
  clientId: string
  createdBy?: string
  createdAt?: Date
  updatedBy?: string
  updatedAt?: Date
  expiresAt?: Date
  transferredAt?: Date
  /** Only given to the sponsoring registrar or when the right authInfo was supplied. */
  authInfo?: string
  dsData: DsData[]
  /** RFC 3915 rgpStatus values, e.g. addPeriod, redemptionPeriod. */
  rgpStatuses: string[]
}

export type DomainRenewInput = { name: string; currentExpiry: Date | string; years?: number }
export type DomainRenewResult = { name: string; expiresAt?: Date }

export type TransferOp = 'request' | 'query' | 'approve' | 'reject' | 'cancel'
export type TransferStatus = 'pending' | 'clientApproved' | 'clientCancelled' | 'clientRejected' | 'serverApproved' | 'serverCancelled'
export type DomainTransferInput = { op: TransferOp; name: string; authInfo?: string; years?: number }
export type TransferResult = {
  name: string
  status: TransferStatus
  requestedBy: string
  requestedAt: Date
  actionBy?: string
  actionAt?: Date
  expiresAt?: Date
  /** True when the registry answered 1001 (action pending). */
  pending: boolean
}

export type DomainAddRem = { nameservers?: string[]; contacts?: DomainContact[]; statuses?: string[] }
export type DomainUpdateInput = {
  name: string
  add?: DomainAddRem
  rem?: DomainAddRem
  /** New registrant contact id. */
  registrant?: string
  authInfo?: string
  dsData?: { add?: DsData[]; rem?: DsData[]; removeAll?: boolean }
}

/** `immediate`: gone now (e.g. within add grace, refunded); otherwise pendingDelete/redemption. */
export type DomainDeleteResult = { immediate: boolean; refunded: boolean; message: string }
export type DomainRestoreResult = { rgpStatuses: string[] }

export type HostAddress = { ip: 'v4' | 'v6'; address: string }
export type HostCreateInput = { name: string; addresses?: HostAddress[] }
export type HostCreateResult = { name: string; createdAt: Date }
export type HostInfo = {
  name: string
  roid: string
  statuses: string[]
  addresses: HostAddress[]
  clientId: string
  createdBy: string
  createdAt: Date
  updatedBy?: string
  updatedAt?: Date
}
export type HostUpdateInput = {
  name: string
  add?: { addresses?: HostAddress[]; statuses?: string[] }
  rem?: { addresses?: HostAddress[]; statuses?: string[] }
  newName?: string
}

export type PostalInfo = {
  type: 'int' | 'loc'
  name: string
  org?: string
  street?: string[]
  city: string
  sp?: string
  pc?: string
  cc: string
}
export type ContactCreateInput = {
  id: string
  postalInfo: PostalInfo[]
  voice?: string
  fax?: string
  email: string
  authInfo: string
}
export type ContactCreateResult = { id: string; createdAt: Date }
export type ContactInfo = {
  id: string
  roid: string
  statuses: string[]
  postalInfo: PostalInfo[]
  voice?: string
  fax?: string
  email: string
  clientId: string
  createdBy: string
  createdAt: Date
  updatedBy?: string
  updatedAt?: Date
  authInfo?: string
}
export type ContactUpdateInput = {
  id: string
  add?: { statuses: string[] }
  rem?: { statuses: string[] }
  change?: { postalInfo?: PostalInfo[]; voice?: string; fax?: string; email?: string; authInfo?: string }
}

export type PollMessage = {
  id: string
  /** Messages in the queue including this one. */
  count: number
  queuedAt?: Date
  message: string
  /** Present for transfer notices (RFC 5731 trnData in the poll response). */
  transfer?: TransferResult
}
