/**
 * Excel's rules for a workbook tab's name, which exceljs enforces by throwing as it adds the tab: the
 * bridge checks them on the way in (`portfolio.export`), so a caller learns which name breaks which
 * rule instead of an "internal" failure halfway through writing.
 */
export const maxTabNameLength = 31;

/** Why `name` cannot name a tab, as the end of a sentence; undefined when it can. */
export function tabNameProblem(name: string): string | undefined {
  if (name.trim() === '') return 'is blank';
  if (name.length > maxTabNameLength) return `is longer than ${maxTabNameLength} characters`;
  if (/[\\/?*[\]:]/.test(name)) return 'contains one of \\ / ? * [ ] :';
  if (name.startsWith("'") || name.endsWith("'")) return "starts or ends with an apostrophe (')";
  if (name.toLowerCase() === 'history') return 'is "History", which Excel keeps for itself';
  return undefined;
}

/** The first two names that are one tab's to Excel (it ignores case), if any. */
export function sameTabNames(names: readonly string[]): [string, string] | undefined {
  const seen = new Map<string, string>();
  for (const name of names) {
    const earlier = seen.get(name.toLowerCase());
    if (earlier !== undefined) return [earlier, name];
    seen.set(name.toLowerCase(), name);
  }
  return undefined;
}
