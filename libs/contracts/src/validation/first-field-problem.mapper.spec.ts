import { describe, expect, it } from '@jest/globals';
import { IsString, MinLength } from 'class-validator';
import { toFirstFieldProblem } from './first-field-problem.mapper.js';
import { validateDto } from './validate-dto.js';

class PairDto {
  @IsString({ message: 'is required' })
  @MinLength(3, { message: 'must be 3 characters or more' })
  first!: string;

  @IsString({ message: 'is required' })
  second!: string;
}

describe('toFirstFieldProblem (the control plane)', () => {
  it('answers the first field in declaration order with its first failed rule', () => {
    const checked = validateDto(PairDto, { second: 5, first: 'ab' }, { stopAtFirstError: true });
    expect(checked.ok).toBe(false);
    if (checked.ok) return;
    expect(toFirstFieldProblem([...checked.errors].reverse(), checked.fields)).toEqual({
      field: 'first',
      problem: 'must be 3 characters or more',
    });
  });

  it('answers nothing when nothing failed', () => {
    expect(toFirstFieldProblem([], ['first'])).toBeUndefined();
  });
});
