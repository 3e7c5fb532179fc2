/** A search criteria page: list and search endpoints require one (platform conventions, "Search criteria"). */
export const SEARCH_PAGE = 'searchCriteria[pageSize]=5&searchCriteria[currentPage]=1'
