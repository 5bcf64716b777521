/** Result payloads of bridge methods that are not domain resources. */

export interface AppInfo {
  name: string;
  version: string;
  /** Which host the renderer runs in: the desktop shell or the browser host used for tests. */
  host: 'electron' | 'browser';
}

/** One row of the first grid: a flat projection of an asset for display. */
export interface SampleAssetRow {
  id: string;
  name: string;
  country: string;
  city: string;
  propertyType: string;
  size: number;
  ownership: number;
}
