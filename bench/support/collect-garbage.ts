/**
 * A full collection before a measure, so it starts without the garbage of what ran before it (the
 * bench's own setup): V8's `gc`, exposed at run time rather than by a flag on every bench's command.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');
export const collectGarbage = runInNewContext('gc') as () => void;
