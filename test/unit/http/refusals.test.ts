import { describe, expect, it } from 'vitest';
import { Refused } from '../../../shared/domain/refusal';
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
});
