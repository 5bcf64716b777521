/** Connections: pick one, add a real service, remove one, sign in to it. */
export function ConnectionsDialog() {
  return null;
}
