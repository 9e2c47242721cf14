import type { Entity } from './define';
import type { entities } from './entities';

type Declared = (typeof entities)[number] extends Entity<infer P> ? P : never;

/**
 * The key segments, each named by itself: `K.CONV` is `'CONV'`, and a segment no entity declares does not
 * compile. Typed from the declarations without importing them, so a function bundles only the entities it uses.
 */
export const K = new Proxy({}, { get: (_, segment) => segment }) as { readonly [P in Declared]: P };
