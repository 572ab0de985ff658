module kubevirt.io/virt-template-api

go 1.24.0
