import type { EndpointRow } from '../types.ts'

/**
 * Spec § Endpoints › Endpoint lists by module › StockMediaAsset and StockMediaImage: one row per method+path, as the
 * spec gives it.
 */
export const rows: EndpointRow[] = [
  {
    method: 'GET',
    path: '/V1/stockmedia/asset/:id',
    module: 'stock-media',
    contract: 'AssetRepositoryInterface::getById',
    access: 'admin',
    params: [{ name: 'id', in: 'path' }],
    sections: ['Endpoints › Endpoint lists by module › StockMediaAsset and StockMediaImage'],
  },
  {
    method: 'GET',
    path: '/V1/stockmedia/asset/list',
    module: 'stock-media',
    family: 'catalog',
    contract: 'GetAssetListInterface::execute',
    contractModule: 'StockMediaAsset',
    access: 'admin',
    acl: 'Shop_StockMediaAsset::actions_view',
    params: [{ name: 'searchCriteria', in: 'query', type: 'SearchCriteriaInterface', required: true }],
    returns: 'SearchResultInterface',
    purpose: 'search by criteria',
    sections: [
      'Endpoints › Endpoint lists by module › StockMediaAsset and StockMediaImage',
      'Endpoints › Endpoints with detailed shape',
    ],
  },
  {
    method: 'GET',
    path: '/V1/stockmedia/asset/search',
    module: 'stock-media',
    contract: 'AssetRepositoryInterface::getList',
    access: 'admin',
    sections: ['Endpoints › Endpoint lists by module › StockMediaAsset and StockMediaImage'],
  },
  {
    method: 'GET',
    path: '/V1/stockmedia/search',
    module: 'stock-media',
    contract: 'GetImageListInterface::execute',
    access: 'admin',
    purpose: 'search images by criteria',
    sections: ['Endpoints › Endpoint lists by module › StockMediaAsset and StockMediaImage'],
  },
]
