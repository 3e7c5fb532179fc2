import type { EndpointRow } from '../types.ts'

/**
 * Spec § Endpoints › Endpoint lists by module › Cms: one row per method+path, as the spec gives it.
 */
export const rows: EndpointRow[] = [
  {
    method: 'POST',
    path: '/V1/cmsBlock',
    module: 'cms',
    contract: 'BlockRepositoryInterface::save',
    access: 'admin',
    sections: ['Endpoints › Endpoint lists by module › Cms'],
  },
  {
    method: 'PUT',
    path: '/V1/cmsBlock/:id',
    module: 'cms',
    contract: 'BlockRepositoryInterface::save',
    access: 'admin',
    params: [{ name: 'id', in: 'path' }],
    sections: ['Endpoints › Endpoint lists by module › Cms'],
  },
  {
    method: 'GET',
    path: '/V1/cmsBlock/:blockId',
    module: 'cms',
    contract: 'BlockRepositoryInterface::getById',
    access: 'admin',
    params: [{ name: 'blockId', in: 'path' }],
    sections: ['Endpoints › Endpoint lists by module › Cms'],
  },
  {
    method: 'GET',
    path: '/V1/cmsBlock/search',
    module: 'cms',
    contract: 'BlockRepositoryInterface::getList',
    access: 'admin',
    sections: ['Endpoints › Endpoint lists by module › Cms'],
  },
  {
    method: 'POST',
    path: '/V1/cmsPage',
    module: 'cms',
    contract: 'PageRepositoryInterface::save',
    access: 'admin',
    sections: ['Endpoints › Endpoint lists by module › Cms'],
  },
  {
    method: 'PUT',
    path: '/V1/cmsPage/:id',
    module: 'cms',
    contract: 'PageRepositoryInterface::save',
    access: 'admin',
    params: [{ name: 'id', in: 'path' }],
    sections: ['Endpoints › Endpoint lists by module › Cms'],
  },
  {
    method: 'GET',
    path: '/V1/cmsPage/:pageId',
    module: 'cms',
    contract: 'PageRepositoryInterface::getById',
    access: 'admin',
    params: [{ name: 'pageId', in: 'path' }],
    sections: ['Endpoints › Endpoint lists by module › Cms'],
  },
  {
    method: 'GET',
    path: '/V1/cmsPage/search',
    module: 'cms',
    contract: 'PageRepositoryInterface::getList',
    access: 'admin',
    sections: ['Endpoints › Endpoint lists by module › Cms'],
  },
]
