// The fresh databases the policy provider's tests run against, shared with
// the map store's tests.
export * from "../../_postgres/_databases.ts";
