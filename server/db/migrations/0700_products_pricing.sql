-- Products, costs, registrar templates, price lists and pricing rules (issue 17, decision 300).
-- Money is integer minor units of its currency (JPY has none); currencies convert at the rates of
-- currency_rates (migration 0696), never at a guessed one.

-- The extra fields a registry needs for a TLD, as a JSON Schema with `ui` keys for the form.
CREATE TABLE registrar_templates (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  schema jsonb NOT NULL CHECK (jsonb_typeof(schema) = 'object'),
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  -- Staff find a template by its name; two of one name would be mistaken for each other.
  UNIQUE (name)
);

-- A sellable thing. Domain products (one per TLD and action) are generated from the TLD catalogue
-- by the trigger below; the others (SSL, blocks, services) are made by staff.
CREATE TABLE products (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- A stable, readable key (domain:com:register, ssl:dv-single:1y) used by CSV cost uploads.
  code text NOT NULL CHECK (code ~ '^[a-z0-9][a-z0-9:._-]{0,99}$'),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  kind text NOT NULL CHECK (kind IN ('domain', 'ssl', 'block', 'service')),
  action text NOT NULL CHECK (action ~ '^[a-z][a-z-]{0,39}$'),
  -- The TLD of a domain product (and of a block of one TLD); null for the others.
  tld text REFERENCES tlds (name) ON UPDATE CASCADE,
  tags text[] NOT NULL DEFAULT '{}',
  periods integer[] NOT NULL DEFAULT '{1}',
  registrar_template_id uuid REFERENCES registrar_templates (id) ON DELETE SET NULL,
  is_active boolean NOT NULL DEFAULT true,
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (code),
  -- A domain product exists once per TLD and action: the quote finds it by that pair.
  CHECK (kind <> 'domain' OR tld IS NOT NULL)
);
CREATE UNIQUE INDEX products_domain_action ON products (tld, action) WHERE kind = 'domain';
CREATE INDEX products_kind ON products (kind, action);

-- What the registry or CA charges us, per product and currency, from a date on: a change announced
-- for a future date is entered now and takes effect then. The cost at an instant is the row with
-- the latest effective_from at or before it.
CREATE TABLE product_costs (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  product_id uuid NOT NULL REFERENCES products (id) ON DELETE CASCADE,
  currency char(3) NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
  -- Per year of the product's period, in minor units; a registry never pays us.
  amount_minor bigint NOT NULL CHECK (amount_minor >= 0),
  effective_from timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  -- One cost per product, currency and date: a second upload of the same date replaces it.
  UNIQUE (product_id, currency, effective_from)
);

-- Price lists. Every account is on one (accounts.pricing_entity_id, or the default list).
CREATE TABLE pricing_entities (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  currencies char(3)[] NOT NULL CHECK (cardinality(currencies) >= 1),
  is_default boolean NOT NULL DEFAULT false,
  -- Days before a price rise takes effect that the accounts on the list are told by mail.
  notice_days integer NOT NULL DEFAULT 30 CHECK (notice_days BETWEEN 0 AND 365),
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (name)
);
-- One default list at most: an account without a list of its own is priced by it.
CREATE UNIQUE INDEX pricing_entities_one_default ON pricing_entities (is_default) WHERE is_default;

ALTER TABLE accounts ADD COLUMN pricing_entity_id uuid REFERENCES pricing_entities (id);

-- One window of a pricing rule. A rule is its name in its set (global, or the rules of the price
-- lists) and may have several windows over time; the service refuses overlapping ones. A rule is
-- per product (product_id) or custom (a selector of many products).
CREATE TABLE pricing_rules (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  rule_name text NOT NULL CHECK (rule_name ~ '^[a-z0-9][a-z0-9._-]{0,79}$'),
  -- null: a global rule; otherwise the price list it belongs to.
  pricing_entity_id uuid REFERENCES pricing_entities (id) ON DELETE CASCADE,
  product_id uuid REFERENCES products (id) ON DELETE CASCADE,
  -- A custom rule's choice of products: { kinds?, actions?, tlds?, tags? } (all given must match).
  selector jsonb,
  kind text NOT NULL CHECK (kind IN ('margin', 'markup', 'fixed', 'minimum-margin', 'rounding', 'promotion', 'volume')),
  params jsonb NOT NULL DEFAULT '{}',
  -- The currency of a money parameter (markup, fixed, promotion); converted at the rates when it
  -- differs from the currency priced.
  currency char(3) CHECK (currency ~ '^[A-Z]{3}$'),
  starts_at timestamptz,
  ends_at timestamptz,
  -- Why a price below cost was accepted (the preview refuses it without one).
  below_cost_reason text,
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  -- Exactly one of the two: a per-product rule or a custom one.
  CHECK ((product_id IS NULL) <> (selector IS NULL)),
  CHECK (starts_at IS NULL OR ends_at IS NULL OR starts_at < ends_at)
);
CREATE INDEX pricing_rules_name ON pricing_rules (rule_name);
CREATE INDEX pricing_rules_entity ON pricing_rules (pricing_entity_id);
CREATE INDEX pricing_rules_product ON pricing_rules (product_id) WHERE product_id IS NOT NULL;

-- The quote an item was priced at (price, rule chain, rate): the order keeps it, invoicing charges it.
ALTER TABLE cart_items ADD COLUMN quote jsonb;
ALTER TABLE order_items ADD COLUMN quote jsonb;

-- The TLD catalogue's domain products stay in step with it: offering a TLD makes (or reactivates)
-- its six domain products; withdrawing it deactivates them (kept, for the orders that name them).
CREATE FUNCTION sync_domain_products() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.is_offered THEN
    INSERT INTO products (code, name, kind, action, tld, periods, is_active)
    SELECT 'domain:' || NEW.name || ':' || a.action, '.' || NEW.unicode_name || ' ' || a.action, 'domain', a.action, NEW.name,
           CASE WHEN a.action IN ('register', 'renew') THEN NEW.periods ELSE '{1}'::integer[] END, true
    FROM unnest(ARRAY['register', 'renew', 'transfer', 'restore', 'trade', 'registry-lock']) AS a(action)
    ON CONFLICT (code) DO UPDATE SET is_active = true, periods = EXCLUDED.periods, updated_at = now();
  ELSIF TG_OP = 'UPDATE' THEN
    UPDATE products SET is_active = false, updated_at = now() WHERE kind = 'domain' AND tld = NEW.name AND is_active;
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER tlds_sync_domain_products AFTER INSERT OR UPDATE OF is_offered, periods ON tlds
  FOR EACH ROW EXECUTE FUNCTION sync_domain_products();
