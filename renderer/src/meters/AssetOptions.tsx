/** The workspace's assets as a select's options, by name, in the grid's order (the meters' pickers). */
import { useWorkspace } from '../store/workspace';

export function AssetOptions() {
  const order = useWorkspace((s) => s.order);
  const assets = useWorkspace((s) => s.assets);
  return (
    <>
      {order.map((id) => (
        <option key={id} value={id}>
          {String(assets.get(id)?.doc['name'] ?? id)}
        </option>
      ))}
    </>
  );
}
