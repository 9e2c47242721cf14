/**
 * A schema declared at a module's top level (a view, an entity's, a domain rule's, a route's request schema):
 * the schema `make` builds, left out of a bundle that never uses it. Call it as
 * `export const view = /* @__PURE__ *\/ built(() => z.strictObject(…))`: esbuild drops an unused call marked pure
 * when its arguments are pure too, and a function (unlike the schema calls inside it) is. Without it every
 * function importing one schema of a module builds them all at its cold start.
 *
 * This is `built` in source (tsx, vitest, the OpenAPI generator): built at once. A deployed bundle has
 * `./built-lazily` in its place (`infra/constructs/bundling.ts`): the same schema, built at its first use, so a
 * cold start builds only what its first request parses. A schema used outside `make` at a module's top level
 * (`view.nullable()` in a route's spec) is used, and so built, at import.
 */
export const built = <T>(make: () => T): T => make();
