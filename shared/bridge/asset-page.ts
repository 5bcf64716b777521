/**
 * A later page of a snapshot's assets (`workspace.assets`) as it crosses the bridge: one JSON text
 * that main writes from the stored documents' texts without parsing them
 * (`electron/workspace/asset-view-text.ts`), and the window reads with `pageViews`. Most assets have
 * nothing to show but their copy (new, or in step with the service: no conflict, no verdict, no
 * outlier): those go as a tuple, not as a view of a dozen named fields, which made a page a tenth
 * larger than its documents (issue 33: the page's bytes are most of its way to the window).
 */
import type { AssetDoc } from '../sync/asset-doc';
import type { AssetStatus, AssetView } from '../sync/types';
import { parseJsonText, type JsonText } from './json-text';

/** An asset with nothing to show but its copy: `[localId, serviceAssetId, partnersId, status, doc]`. */
export type PlainView = [string, number | null, number | null, AssetStatus, AssetDoc];

export interface AssetPage {
  /** The page's assets in order: each a whole view, or a `PlainView`. */
  views: JsonText<Array<AssetView | PlainView>>;
  next: number | null;
}

/** The page's views; a malformed text (a damaged file) throws an error that says so. */
export function pageViews(page: AssetPage): AssetView[] {
  let items: Array<AssetView | PlainView>;
  try {
    items = parseJsonText(page.views);
  } catch (error) {
    throw new Error(`a page of the workspace could not be read (${String(error)})`);
  }
  return items.map((item) => (Array.isArray(item) ? plainView(item) : item));
}

/** The whole view of an asset with nothing but its copy to show: nothing staged, no verdict. */
export function plainView([localId, serviceAssetId, partnersId, status, doc]: PlainView): AssetView {
  return {
    localId,
    serviceAssetId,
    partnersId,
    doc,
    status,
    changedPaths: [],
    conflicts: [],
    remoteDeleted: false,
    notFound: false,
    serverValidations: null,
    outliers: [],
  };
}
