import type { ColumnType, Generated, Selectable } from 'kysely'
import { ORDER_STATES, type OrderState } from '#common/lists/orders.ts'

export { ORDER_STATES, type OrderState }

type Defaulted<T> = ColumnType<T, T | undefined, T>
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>
/** bigint columns arrive as strings from PostgreSQL and numbers from PGlite; services read them with Number(). */
type Minor = ColumnType<string | number, number, number>

export const ORDER_ITEM_TYPES = ['register', 'transfer', 'renew'] as const
export type OrderItemType = (typeof ORDER_ITEM_TYPES)[number]
export const ORDER_ITEM_STATES = ['pending', 'processing', 'completed', 'failed', 'cancelled'] as const
export type OrderItemState = (typeof ORDER_ITEM_STATES)[number]
export type MoneyTotal = { currency: string; minor: number }

/** One unit of from_currency in to_currency (numeric: a string from PostgreSQL, a string or number from PGlite). */
export interface CurrencyRatesTable {
  from_currency: string
  to_currency: string
  rate: ColumnType<string | number, string | number, string | number>
  updated_at: Timestamp
}

export interface CartItemsTable {
  id: Generated<string>
  account_id: string
  user_id: string
  type: OrderItemType
  name: string
  unicode_name: string
  tld: string
  period: number
  auth_code: string | null
  price_minor: Minor
  currency: string
  created_at: Timestamp
  updated_at: Timestamp
}

export type OrderContacts = { registrant: string; admin: string; tech: string; billing: string }

export interface OrdersTable {
  id: Generated<string>
  account_id: string
  user_id: string | null
  created_by: string
  state: Defaulted<OrderState>
  item_count: Defaulted<number>
  completed_count: Defaulted<number>
  failed_count: Defaulted<number>
  names: Defaulted<string>
  totals: ColumnType<MoneyTotal[], string | undefined, string>
  /** The registration contacts chosen at checkout (contact ids of the account), or null. */
  contacts: ColumnType<OrderContacts | null, string | null | undefined, string | null>
  total_text: Defaulted<string>
  version: Defaulted<number>
  created_at: Timestamp
  updated_at: Timestamp
}

export interface OrderItemsTable {
  id: Generated<string>
  order_id: string
  account_id: string
  position: number
  type: OrderItemType
  name: string
  unicode_name: string
  tld: string
  period: number
  auth_code: string | null
  new_auth_code: string | null
  price_minor: Minor
  currency: string
  state: Defaulted<OrderItemState>
  attempts: Defaulted<number>
  run_attempts: Defaulted<number>
  last_error: string | null
  registry_code: number | null
  domain_id: string | null
  transfer_checks: Defaulted<number>
  created_at: Timestamp
  updated_at: Timestamp
}

export interface OrderItemEventsTable {
  id: Generated<string>
  item_id: string
  occurred_at: Timestamp
  state: string
  message: string
  registry_code: number | null
  actor_label: Defaulted<string>
}

export type CartItem = Selectable<CartItemsTable>
export type Order = Selectable<OrdersTable>
export type OrderItem = Selectable<OrderItemsTable>
export type OrderItemEvent = Selectable<OrderItemEventsTable>

/** The order tables, added to the `DB` interface with one line. */
export interface OrdersTables {
  cart_items: CartItemsTable
  currency_rates: CurrencyRatesTable
  orders: OrdersTable
  order_items: OrderItemsTable
  order_item_events: OrderItemEventsTable
}
