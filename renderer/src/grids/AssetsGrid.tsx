import { AgGridReact } from 'ag-grid-react';
import { AllCommunityModule, ModuleRegistry, type ColDef } from 'ag-grid-community';
import type { AssetView } from '../../../shared/sync/types';

ModuleRegistry.registerModules([AllCommunityModule]);

const columns: ColDef<AssetView>[] = [
  {
    headerName: 'Name',
    valueGetter: (p) => p.data?.doc['name'],
    colId: 'name',
    pinned: 'left',
    minWidth: 220,
  },
  { headerName: 'Asset ID', field: 'serviceAssetId', width: 110 },
  { headerName: 'Country', valueGetter: (p) => p.data?.doc['country'], colId: 'country', width: 110 },
  { headerName: 'City', valueGetter: (p) => p.data?.doc['city'], colId: 'city' },
  {
    headerName: 'Property type',
    valueGetter: (p) => p.data?.doc['property_type_code'],
    colId: 'property_type_code',
  },
  { headerName: 'Size', valueGetter: (p) => p.data?.doc['size'], colId: 'size', type: 'numericColumn' },
  {
    headerName: 'Ownership %',
    valueGetter: (p) => p.data?.doc['ownership'],
    colId: 'ownership',
    type: 'numericColumn',
  },
];

const defaultColDef: ColDef = { sortable: true, filter: true, resizable: true };

export function AssetsGrid({ rows }: { rows: AssetView[] }) {
  return (
    <div className="grid-host" data-testid="assets-grid">
      <AgGridReact<AssetView>
        rowData={rows}
        columnDefs={columns}
        defaultColDef={defaultColDef}
        getRowId={(params) => params.data.localId}
      />
    </div>
  );
}
