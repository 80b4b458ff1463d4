-- EV details of SSL organisations (issue 19; CA/Browser Forum EV Guidelines §7.1.4.2): the
-- jurisdiction of incorporation (country, and the state and locality where the entity was
-- incorporated at that level), the business category and the date of incorporation. Empty for an
-- OV-only organisation; an EV order refuses an organisation without them.
ALTER TABLE ssl_organisations ADD COLUMN jurisdiction_country text NOT NULL DEFAULT '' CHECK (jurisdiction_country = '' OR jurisdiction_country ~ '^[A-Z]{2}$');
ALTER TABLE ssl_organisations ADD COLUMN jurisdiction_state text NOT NULL DEFAULT '';
ALTER TABLE ssl_organisations ADD COLUMN jurisdiction_locality text NOT NULL DEFAULT '';
ALTER TABLE ssl_organisations ADD COLUMN business_category text NOT NULL DEFAULT ''
  CHECK (business_category IN ('', 'private_organization', 'government_entity', 'business_entity', 'non_commercial_entity'));
ALTER TABLE ssl_organisations ADD COLUMN incorporation_date date;
