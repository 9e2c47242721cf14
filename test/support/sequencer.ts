import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that run for minutes, heaviest first (measured on 2 cores): started first, the short files fill
 * in beside them instead of one long file trailing at the end of the run. The rest keep vitest's order.
 */
const HEAVY = [/\/test\/gates\/schema-fuzz\./, /\/test\/gates\//, /-crash\.test\.ts$/, /\/local-runtime\.test\.ts$/, /-deactivation\.test\.ts$/];

const rank = (spec: TestSpecification): number => {
  const i = HEAVY.findIndex((pattern) => pattern.test(spec.moduleId));
  return i < 0 ? HEAVY.length : i;
};

export default class HeaviestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}
