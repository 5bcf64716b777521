// js-yaml ships no types and @types/js-yaml is not installed; the test needs only `load`.
declare module 'js-yaml' {
  export function load(input: string, options?: { filename?: string }): unknown;
}
