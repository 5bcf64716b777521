/** Meters and readings (issue 32): types, units, the roll-up, the rules and the readings-file reader. */
export * from './types';
export * from './units';
export * from './dates';
export * from './fields';
export * from './rollup';
export * from './rules';
export * from './import-rows';
