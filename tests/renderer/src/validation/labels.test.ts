import { describe, expect, it } from 'vitest';
import { messageWithLabels } from '../../../../renderer/src/validation/labels';

describe('messages worded with the columns’ labels', () => {
  it.each([
    ['must be on or after ownership_from', 'must be on or after Owned from'],
    ['Must be less than or equal to size', 'Must be less than or equal to Floor area'],
    [
      'must be less than or equal to wat_tot_w',
      'must be less than or equal to Water total floor area, whole building',
    ],
    ['is not a number', 'is not a number'],
    ['unknown_field stays', 'unknown_field stays'],
  ])('%s', (message, worded) => {
    expect(messageWithLabels(message)).toBe(worded);
  });
});
