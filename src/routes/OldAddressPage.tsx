import { Navigate, useLocation } from 'react-router-dom';
import { currentAddress } from './oldAddresses';

/** An older address of the spec: replaced by today's (the guard and the layout ran first). */
export default function OldAddressPage() {
  const { pathname } = useLocation();
  return <Navigate to={currentAddress(pathname) ?? '/404'} replace />;
}
