import { AgGridReact } from 'ag-grid-react';
import { AllCommunityModule, ModuleRegistry, type ColDef } from 'ag-grid-community';
import type { SampleAssetRow } from '../../../shared/bridge/contract';

ModuleRegistry.registerModules([AllCommunityModule]);

const columns: ColDef<SampleAssetRow>[] = [
  { field: 'name', headerName: 'Name', pinned: 'left', minWidth: 200 },
  { field: 'country', headerName: 'Country', width: 110 },
  { field: 'city', headerName: 'City' },
  { field: 'propertyType', headerName: 'Property type', width: 140 },
  { field: 'size', headerName: 'Size', type: 'numericColumn' },
  { field: 'ownership', headerName: 'Ownership %', type: 'numericColumn', width: 140 },
];

const defaultColDef: ColDef = { sortable: true, filter: true, resizable: true };

export function AssetsGrid({ rows }: { rows: SampleAssetRow[] }) {
  return (
    <div className="grid-host" data-testid="assets-grid">
      <AgGridReact<SampleAssetRow>
        rowData={rows}
        columnDefs={columns}
        defaultColDef={defaultColDef}
        getRowId={(params) => params.data.id}
      />
    </div>
  );
}
