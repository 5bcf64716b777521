/** Portfolio responses: list, open, answer offline, sync with lock_version, attach evidence. */
export function ResponsesView() {
  return null;
}
