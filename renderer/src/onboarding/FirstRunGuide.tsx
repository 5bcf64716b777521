/** The first-run guide: edit, validate, sync, export, and how to add a real connection. */
export function FirstRunGuide() {
  return null;
}
