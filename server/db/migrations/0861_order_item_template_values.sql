-- Issue 17: the values of a TLD's registrar template (a .eu citizenship, a .us nexus …) given in
-- the cart and validated against the template's JSON Schema when the order is placed, kept on
-- the order item the registry is asked for. Null when the item's product has no template.
ALTER TABLE order_items ADD COLUMN template_values jsonb;
