/**
 * The worked example of README "Extending the suite": one endpoint of a vendor's own and one check of its own.
 * Run it against the bundled reference target, which serves the endpoint when told to:
 *
 *   npx shop-conformance target --serve-example            # or --serve-example=broken: a negative stock
 *   SHOP_BASE_URL=http://127.0.0.1:8080 SHOP_ADMIN_USERNAME=admin \
 *     SHOP_ADMIN_PASSWORD='Reference-Target-Admin-7q!Kx29' \
 *     npx shop-conformance run --config examples/vendor-extension/shop-conformance.config.ts
 */
import { defineConfig } from '../../lib/extend/index.ts'
import { warehouseStock } from './warehouse-stock.ts'

export default defineConfig({
  endpoints: [
    {
      method: 'GET',
      path: '/V1/ref-example/warehouses',
      access: 'admin',
      module: 'vendor-warehouses',
      note: 'the warehouses module: every warehouse with its stock',
    },
  ],
  checks: [warehouseStock],
})
