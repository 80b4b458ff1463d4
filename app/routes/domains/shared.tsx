import { StatusBadge as Status } from '#app/components/status-badge.tsx'

/** A domain status as a coloured, translated badge (the code on hover). */
export function StatusBadge({ status }: { status: string }) {
  return <Status kind="domain" code={status} data-testid="domain-status" />
}

/** How a contact reads in a choice or a summary: its name, and its organisation when it has one. */
export const contactLabel = (contact: { name: string; organisation?: string | null }) => (contact.organisation ? `${contact.name} (${contact.organisation})` : contact.name)
