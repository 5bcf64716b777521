/** The meters' bridge argument types as the renderer builds them. */
import type { MethodArgs } from '../../../shared/bridge/contract';

export type MetersArgsOf<N extends 'meters.edit' | 'meters.saveMeters' | 'meters.delete'> = MethodArgs<N>;
