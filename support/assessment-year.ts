/** The assessment year every sandbox of the tests and the benches runs, and their assets' data is for. */
export const assessmentYear = 2025;
