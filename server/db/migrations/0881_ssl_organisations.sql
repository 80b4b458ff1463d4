-- SSL organisations (issue 19): the legal entity an OV or EV certificate names. Per account: its
-- legal name, registration number, address, phone and approver; a validation checklist staff mark
-- (organisation, agreement, documents, callback, approver — each waiting, attention or validated,
-- with a note, who and when) and the documents uploaded for it. An OV/EV order names one and waits
-- (draft) until it is validated; then it goes to the CA.
CREATE TABLE ssl_organisations (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id uuid NOT NULL REFERENCES accounts (id),
  legal_name text NOT NULL CHECK (length(legal_name) BETWEEN 1 AND 200),
  registration_number text NOT NULL DEFAULT '',
  street1 text NOT NULL,
  street2 text NOT NULL DEFAULT '',
  city text NOT NULL,
  region text NOT NULL DEFAULT '',
  postcode text NOT NULL DEFAULT '',
  country char(2) NOT NULL,
  phone text NOT NULL,
  approver_name text NOT NULL,
  approver_email text NOT NULL,
  approver_phone text NOT NULL DEFAULT '',
  -- waiting until every check is validated; attention when one needs the customer.
  status text NOT NULL DEFAULT 'waiting' CHECK (status IN ('waiting', 'attention', 'validated')),
  -- Per check: {"state": "waiting|attention|validated", "note": "", "by": "", "at": "…"}.
  checks jsonb NOT NULL DEFAULT '{}',
  validated_at timestamptz,
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX ssl_organisations_name_key ON ssl_organisations (account_id, lower(legal_name));
CREATE INDEX ssl_organisations_account_created_idx ON ssl_organisations (account_id, created_at, id);
CREATE INDEX ssl_organisations_created_idx ON ssl_organisations (created_at, id);

CREATE TABLE ssl_organisation_documents (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organisation_id uuid NOT NULL REFERENCES ssl_organisations (id) ON DELETE CASCADE,
  account_id uuid NOT NULL REFERENCES accounts (id),
  filename text NOT NULL,
  content_type text NOT NULL,
  size_bytes integer NOT NULL CHECK (size_bytes BETWEEN 1 AND 5242880),
  content bytea NOT NULL,
  uploaded_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX ssl_organisation_documents_org_idx ON ssl_organisation_documents (organisation_id, created_at);

ALTER TABLE ssl_certificates ADD COLUMN organisation_id uuid REFERENCES ssl_organisations (id);
CREATE INDEX ssl_certificates_organisation_idx ON ssl_certificates (organisation_id) WHERE organisation_id IS NOT NULL;
