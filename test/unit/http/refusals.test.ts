import { describe, expect, it } from 'vitest';
import { Missing, Refused } from '../../../shared/domain/refusal';
import { httpErrorOf } from '../../../shared/http/errors';

describe('a repository refusal as an HTTP answer', () => {
  it('is the 422 naming the request field it concerns, with the repository message', () => {
    expect(httpErrorOf(new Refused('no_such_stage', 'No such stage in this pipeline'))).toEqual({
      status: 422,
      headers: {},
      body: {
        code: 'VALIDATION_ERROR',
        message: 'Validation failed: stageId: No such stage in this pipeline',
        details: { errors: [{ path: 'stageId', message: 'No such stage in this pipeline' }] },
      },
    });
  });

  it('names the paging field for a cursor or page it cannot give', () => {
    expect(httpErrorOf(new Refused('invalid_cursor', 'Invalid or expired cursor'))?.body.details).toEqual({
      errors: [{ path: 'cursor', message: 'Invalid or expired cursor' }],
    });
    expect(httpErrorOf(new Refused('page_too_deep', 'too deep'))?.body.details).toEqual({
      errors: [{ path: 'page', message: 'too deep' }],
    });
  });

  it('is a 409 with the repository message and details when a condition stood in the way', () => {
    expect(httpErrorOf(new Refused('subscription_limit_reached', 'At most 25', { limit: 25 }))).toEqual({
      status: 409,
      headers: {},
      body: { code: 'CONFLICT', message: 'At most 25', details: { limit: 25 } },
    });
    expect(httpErrorOf(new Refused('stage_holds_leads', 'Still holds leads'))?.body).toEqual({
      code: 'CONFLICT',
      message: 'Still holds leads',
    });
  });

  it('is the 404 naming the entity when the record a call names is missing', () => {
    expect(httpErrorOf(new Missing('Task'))).toEqual({
      status: 404,
      headers: {},
      body: { code: 'NOT_FOUND', message: 'Task not found' },
    });
  });

  it('leaves any other error undescribed', () => {
    expect(httpErrorOf(new Error('boom'))).toBeUndefined();
  });
});
