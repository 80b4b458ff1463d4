/** The schema validation helper of spec §5 lives in the contract (common/json-schema.ts): the API validates registrar templates with it too. */
export * from '#common/json-schema.ts'
