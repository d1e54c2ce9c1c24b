/*
 * The service's wire types, written out by hand so the built package needs nothing outside client/.
 * test/unit/client-types.test.ts checks them against the server's zod schemas at compile time.
 */
export {};
