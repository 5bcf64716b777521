/** Human labels for document paths ("2024 · Energy consumption, whole building, fuel"). Pure. */
import { fieldLabel } from '../../../shared/domain/path-labels';

export { fieldLabel, pathLabel } from '../../../shared/domain/path-labels';

/** Field names inside a message, as the rules write them ("must be on or after ownership_from"). */
const fieldName = /\b(?:size|[a-z]+(?:_[a-z0-9]+)+)\b/g;

/**
 * A rule's message worded with the columns' labels: "must be on or after Owned from", "Must be
 * less than or equal to Floor area". Names the catalog does not know stay as they are.
 */
export function messageWithLabels(message: string): string {
  return message.replace(fieldName, (name) => {
    const label = fieldLabel(name);
    return label === name ? name : label;
  });
}
