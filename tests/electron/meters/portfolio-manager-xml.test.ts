import { describe, expect, it } from 'vitest';
import { parsePortfolioManagerXml, utilityOfPmType } from '../../../electron/meters/portfolio-manager-xml';

// Written from Portfolio Manager's documented responses: GET /meter/{id} (meter.xsd) followed by
// GET /meter/{id}/consumptionData (meterData.xsd).
const fixture = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<export>
<meter>
  <id>200</id>
  <type>Electric</type>
  <name>Electric Main Meter</name>
  <unitOfMeasure>kBtu (thousand Btu)</unitOfMeasure>
  <metered>true</metered>
  <firstBillDate>2010-01-01</firstBillDate>
  <inUse>true</inUse>
</meter>
<meterData>
  <meterConsumption estimatedValue="false">
    <id>9001</id>
    <startDate>2023-12-01</startDate>
    <endDate>2023-12-31</endDate>
    <usage>1000.5</usage>
    <cost>110</cost>
  </meterConsumption>
  <meterConsumption estimatedValue="true">
    <id>9002</id>
    <startDate>2024-01-01</startDate>
    <endDate>2024-01-31</endDate>
    <usage>900</usage>
  </meterConsumption>
  <links><link httpMethod="GET" link="/meter/200/consumptionData?page=2" linkDescription="next page"/></links>
</meterData>
<meter>
  <id>201</id>
  <type>Municipally Supplied Potable Water - Outdoor</type>
  <name>Irrigation</name>
  <unitOfMeasure>KGal (thousand gallons) (US)</unitOfMeasure>
</meter>
<meterData>
  <meterConsumption>
    <id>9003</id>
    <startDate>2024-01-01</startDate>
    <endDate>2024-01-31</endDate>
    <usage>abc</usage>
  </meterConsumption>
  <meterConsumption estimatedValue="false">
    <id>9004</id>
    <startDate>01/02/2024</startDate>
    <endDate>2024-02-29</endDate>
    <usage>3</usage>
  </meterConsumption>
</meterData>
</export>`;

describe('Portfolio Manager XML', () => {
  const asset = { partnersId: 'P-1', name: null };

  it('reads meters and their consumption data', () => {
    const result = parsePortfolioManagerXml(fixture, { file: 'pm.xml', asset });
    expect(result.meters).toEqual([
      {
        key: 'pm:200',
        meterId: 'pm:200',
        name: 'Electric Main Meter',
        asset,
        utility: 'electricity',
        space: 'whole_building',
        areaServed: null,
        unit: 'kBtu (thousand Btu)',
        row: 3,
      },
      {
        key: 'pm:201',
        meterId: 'pm:201',
        name: 'Irrigation',
        asset,
        utility: 'water',
        space: 'outdoor_landlord',
        areaServed: null,
        unit: 'KGal (thousand gallons) (US)',
        row: 28,
      },
    ]);
    expect(result.readings).toEqual([
      {
        meterKey: 'pm:200',
        start: '2023-12-01',
        end: '2023-12-31',
        quantity: 1000.5,
        unit: 'kBtu (thousand Btu)',
        estimated: false,
        source: { kind: 'file', file: 'pm.xml', row: 13 },
      },
      {
        meterKey: 'pm:200',
        start: '2024-01-01',
        end: '2024-01-31',
        quantity: 900,
        unit: 'kBtu (thousand Btu)',
        estimated: true,
        source: { kind: 'file', file: 'pm.xml', row: 20 },
      },
    ]);
    expect(result.errors).toEqual([
      { file: 'pm.xml', row: 39, column: 'usage', message: '"abc" is not a number.' },
      { file: 'pm.xml', row: 43, column: 'startDate', message: '"01/02/2024" is not a date (YYYY-MM-DD).' },
    ]);
  });

  it('maps Portfolio Manager meter types to utilities', () => {
    expect(utilityOfPmType('Natural Gas')?.utility).toBe('fuel');
    expect(utilityOfPmType('Fuel Oil No 2')?.utility).toBe('fuel');
    expect(utilityOfPmType('District Steam')?.utility).toBe('district');
    expect(utilityOfPmType('Electric on Site Solar')?.utility).toBe('electricity');
    expect(utilityOfPmType('Municipally Supplied Potable Water - Mixed Indoor/Outdoor')).toEqual({
      utility: 'water',
      space: 'whole_building',
    });
    expect(utilityOfPmType('IT Equipment Input Energy (meters on each piece of equipment)')).toBeNull();
  });

  it('refuses unreadable XML, unknown types and oversized files with the line', () => {
    const broken = parsePortfolioManagerXml('<meter><id>1</id>\n<type>Electric</type', {
      file: 'x.xml',
      asset,
    });
    expect(broken.errors[0]).toMatchObject({ file: 'x.xml', row: 2, column: null });
    expect(broken.errors[0]?.message).toContain('Not readable XML');
    const odd = parsePortfolioManagerXml(
      '<meter><id>7</id><type>Data Center - UPS Output Meter</type><unitOfMeasure>kWh (thousand Watt-hours)</unitOfMeasure></meter>',
      { file: 'x.xml', asset },
    );
    expect(odd.errors).toEqual([
      { file: 'x.xml', row: 1, column: 'type', message: expect.stringContaining('Meter 7') as string },
    ]);
    expect(
      parsePortfolioManagerXml('<meter/>', { file: 'x.xml', asset, maxChars: 3 }).errors[0]?.message,
    ).toContain('larger than 3');
  });
});
