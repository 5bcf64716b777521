/**
 * The grids' corner marks ask main which cells came from the analyst's hand for the rows they
 * draw only (`workspace.handCells`): at most this many assets a call, so one answer stays a few
 * thousand rows however large the workspace (a whole workspace's was 1.3 M rows and 4.5 s).
 */
export const handCellsBatch = 500;
