import { inject } from 'vitest';

/** This worker's DynamoDB Local: global-setup starts one per worker, and VITEST_POOL_ID counts them from 1. */
export const dynamoEndpoint = (): string => {
  const endpoints = inject('dynamoEndpoints');
  return endpoints[(Number(process.env.VITEST_POOL_ID ?? 1) - 1) % endpoints.length]!;
};
