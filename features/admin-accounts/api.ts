/**
 * What the admin area's accounts offer every program: the bound of one `admin/user-images`
 * call and the shape of its answer (the admin's list of users asks for its page's photos).
 */
export { MAX_IMAGE_IDS } from './schemas';
export type { UserImage } from './schemas';
