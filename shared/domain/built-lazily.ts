import * as z from 'zod';

/**
 * `built` (`./built`) as a deployed bundle has it: the schema `make` builds, built at the first use of any of its
 * properties, not at import. A route's response schema names its views but is never parsed in a Lambda (`respond`
 * only wraps the data), and an entity schema extends its views only at its first read, so a cold start builds
 * only what its first request parses.
 *
 * What is returned stands in for the schema: a Proxy that forwards every operation to it, with itself as the
 * receiver, so zod's methods (on the prototype, reading `this`) see the stand-in throughout and every schema built
 * on it (`.extend`, `.nullable`, a `z.object` shape, a clone's `_zod.parent`) refers to the stand-in, as source
 * refers to the schema. The schema's metadata is registered for the stand-in once built, so `.meta()`,
 * `.description` and `z.toJSONSchema` (its `$defs` by id) read the same. zod's own `_zod` is non-configurable:
 * such a property is copied onto the Proxy's target when first described, as the Proxy invariants require.
 */
export const built = <T>(make: () => T): T => {
  const target = {};
  let schema: z.ZodType | undefined;
  const real = (): z.ZodType => {
    if (schema) return schema;
    schema = make() as z.ZodType;
    const meta = z.globalRegistry.get(schema);
    if (meta) z.globalRegistry.add(standIn as z.ZodType, meta);
    return schema;
  };
  const standIn = new Proxy(target, {
    get: (_, key) => Reflect.get(real(), key, standIn),
    set: (_, key, value) => Reflect.set(real(), key, value),
    has: (_, key) => Reflect.has(real(), key),
    deleteProperty: (_, key) => Reflect.deleteProperty(real(), key),
    ownKeys: () => Reflect.ownKeys(real()),
    getPrototypeOf: () => Reflect.getPrototypeOf(real()),
    getOwnPropertyDescriptor: (_, key) => {
      const described = Reflect.getOwnPropertyDescriptor(real(), key);
      if (described && !described.configurable && !Reflect.getOwnPropertyDescriptor(target, key))
        Reflect.defineProperty(target, key, described);
      return described;
    },
    defineProperty: (_, key, descriptor) => {
      const defined = Reflect.defineProperty(real(), key, descriptor);
      if (defined && descriptor.configurable === false) Reflect.defineProperty(target, key, descriptor);
      return defined;
    },
  });
  return standIn as T;
};
