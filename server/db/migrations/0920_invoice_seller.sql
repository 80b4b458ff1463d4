-- Each invoice keeps the seller it was issued by (issue 18): the registrar's identity is now
-- configuration (SELLER_*), and a later change of it must not rewrite documents already issued.
-- Documents issued before were printed with the constant the code held then.
ALTER TABLE invoices ADD COLUMN seller jsonb;
UPDATE invoices SET seller = '{"name": "Registrar Operations B.V.", "street": "Herengracht 100", "city": "Amsterdam", "postcode": "1015 BS", "country": "NL", "vat_id": "NL123456789B01", "registration": "12345678", "email": "billing@registrar.example"}'::jsonb;
ALTER TABLE invoices ALTER COLUMN seller SET NOT NULL;
