module kubevirt.io/virt-template-client-go

go 1.24.0
