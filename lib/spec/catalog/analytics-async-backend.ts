import type { EndpointRow } from '../types.ts'

/**
 * Spec § Endpoints › Endpoint lists by module › Analytics, AsynchronousOperations, Backend: one row per method+path, as
 * the spec gives it.
 */
export const rows: EndpointRow[] = [
  {
    method: 'GET',
    path: '/V1/analytics/link',
    module: 'analytics-async-backend',
    contract: 'LinkProviderInterface::get',
    access: 'admin',
    sections: ['Endpoints › Endpoint lists by module › Analytics, AsynchronousOperations, Backend'],
  },
  {
    method: 'GET',
    path: '/V1/bulk',
    module: 'analytics-async-backend',
    contract: 'OperationRepositoryInterface::getList',
    access: 'admin',
    purpose: 'bulk operation items by criteria',
    sections: ['Endpoints › Endpoint lists by module › Analytics, AsynchronousOperations, Backend'],
  },
  {
    method: 'GET',
    path: '/V1/bulk/:bulkUuid/detailed-status',
    module: 'analytics-async-backend',
    contract: 'BulkStatusInterface::getBulkDetailedStatus',
    access: 'admin',
    params: [{ name: 'bulkUuid', in: 'path' }],
    purpose: 'summary plus full operation items',
    sections: ['Endpoints › Endpoint lists by module › Analytics, AsynchronousOperations, Backend'],
  },
  {
    method: 'GET',
    path: '/V1/bulk/:bulkUuid/operation-status/:status',
    module: 'analytics-async-backend',
    contract: 'BulkStatusInterface::getOperationsCountByBulkIdAndStatus',
    access: 'admin',
    params: [
      { name: 'bulkUuid', in: 'path' },
      { name: 'status', in: 'path' },
    ],
    sections: ['Endpoints › Endpoint lists by module › Analytics, AsynchronousOperations, Backend'],
  },
  {
    method: 'GET',
    path: '/V1/bulk/:bulkUuid/status',
    module: 'analytics-async-backend',
    contract: 'BulkStatusInterface::getBulkShortStatus',
    access: 'admin',
    params: [{ name: 'bulkUuid', in: 'path' }],
    purpose: 'summary plus short items',
    sections: ['Endpoints › Endpoint lists by module › Analytics, AsynchronousOperations, Backend'],
  },
  {
    method: 'GET',
    path: '/V1/modules',
    module: 'analytics-async-backend',
    contract: 'ModuleServiceInterface::getModules',
    access: 'admin',
    purpose: 'enabled modules',
    sections: ['Endpoints › Endpoint lists by module › Analytics, AsynchronousOperations, Backend'],
  },
]
