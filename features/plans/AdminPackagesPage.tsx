import { Box, Button } from '@mui/material';
import Add from '@mui/icons-material/Add';
import Inventory2Outlined from '@mui/icons-material/Inventory2Outlined';
import type { RaRecord } from 'ra-core';
import { Link } from 'react-router-dom';
import { GenericList } from '../../src/generic/GenericList';
import { planPaths } from './links';
import { limitCell, priceCell } from './PlanCells';
import { bizplans } from './resource';

const render = {
  monthly_price: priceCell('monthly_price'),
  annual_price: priceCell('annual_price'),
  max_servers: limitCell('max_servers'),
};
const columns = ['name', 'monthly_price', 'annual_price', 'max_servers', 'active'] as const;
const labels = { monthly_price: 'Monthly', annual_price: 'Annual', active: 'Offered' };

/** /admin/packages: the main plans (spec s.9 ids, edited in place) and the add-on packages. */
export default function AdminPackagesPage() {
  const add = (
    <Button component={Link} to={planPaths.addon} variant="contained" startIcon={<Add />}>
      Add add-on package
    </Button>
  );
  return (
    <Box>
      <GenericList
        resource={bizplans}
        title="Packages"
        description="The plans users subscribe to, and what each allows. A package users are on is deactivated rather than removed: they keep it, new subscribers no longer see it."
        actions={add}
        label="Main packages"
        columns={columns}
        labels={labels}
        filter={{ kind: 'main' }}
        filterFields={[]}
        sort={{ field: 'id', order: 'ASC' }}
        render={render}
        editLink={(r: RaRecord) => planPaths.main(r.id)}
      />
      <GenericList
        resource={bizplans}
        title="Add-on packages"
        label="Add-on packages"
        columns={columns}
        labels={labels}
        filter={{ kind: 'addon' }}
        filterFields={[]}
        sort={{ field: 'name', order: 'ASC' }}
        render={render}
        editLink={(r: RaRecord) => planPaths.main(r.id)}
        deletable={{
          what: (r) => `the package ${String(r.name)}`,
          consequence: () => 'Refused while a user is on it: deactivate it then.',
        }}
        empty={{
          title: 'No add-on packages',
          text: 'Add-ons are bought on top of a plan: more backup storage, more servers.',
          icon: Inventory2Outlined,
          action: add,
        }}
      />
    </Box>
  );
}
